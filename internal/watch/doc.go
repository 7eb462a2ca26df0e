// Package watch lets `mcpeek watch` attach to the proxies the same person
// runs: each proxy listens on a Unix socket in a per-user directory only
// that person can reach ([Dir]), checks the uid of every peer, and sends
// an attached watcher its wire log so far, then each new entry, already
// redacted by the log ([Hub]). The proxy can also ask an attached watcher
// an elicitation's question and wait for its answer ([Hub.Ask]).
//
// The protocol is JSON lines, each at most [MaxLine] bytes:
//
//	proxy → watcher  {"type":"hello","info":{…}}
//	                 {"type":"entry","entry":{…}}     the ring, then…
//	                 {"type":"live"}                   …new entries from here
//	                 {"type":"dropped","dropped":N}    N entries the watcher was too slow for
//	                 {"type":"ask","id":N,"params":{…}}
//	                 {"type":"cancel","id":N}          the question is no longer asked
//	watcher → proxy  {"type":"answer","id":N,"result":{…}} or {"type":"answer","id":N,"error":"…"}
package watch
