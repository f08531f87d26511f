package main

import "plugin"

// viaPlugin runs a function of a plugin, loaded at run time, on s in a
// goroutine: its body is not part of the program analysed, so whatever it
// writes is unseen.
func viaPlugin(s *State) {
	p, err := plugin.Open("state.so")
	if err != nil {
		return
	}
	sym, err := p.Lookup("Touch")
	if err != nil {
		return
	}
	touch := sym.(func(*State))
	go func() {
		touch(s) // unseen: a write in a plugin
		s.p = 1  // want `State.p written in viaPlugin func literal 1 \(goroutine started in viaPlugin: viaPlugin func literal 1\) races with its read in main`
	}()
}
