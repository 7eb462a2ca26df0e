// Package termtext words values for a terminal line. Text from servers
// and files is made safe to show by internal/textclean.
package termtext

import "time"

// Until words how long until t, as a token's expiry is shown: "in 59m0s",
// "expired", or "never" for no time.
func Until(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := time.Until(t).Round(time.Second)
	if d <= 0 {
		return "expired"
	}
	return "in " + d.String()
}
