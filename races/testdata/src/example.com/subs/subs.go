// Package subs stands for a dependency (its path has a dot, as a
// module's does) that keeps the callbacks it is handed and runs them
// later, in goroutines of its own (nats.go's Subscribe).
package subs

// Handler handles a message.
type Handler func(string)

type Sub struct{ cb Handler }

var all []*Sub

// Subscribe keeps cb and runs it for each message, later.
func Subscribe(subject string, cb Handler) *Sub {
	s := &Sub{cb: cb}
	all = append(all, s)
	return s
}
