package apphost

// URL returns the tab URL of the request key's session, token included,
// while the session lasts: for a person who must open it by hand.
func (h *Host) URL(key string) (string, bool) {
	s := h.session(key)
	if s == nil {
		return "", false
	}
	return s.link(), true
}
