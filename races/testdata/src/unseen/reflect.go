package main

import "reflect"

// viaReflect writes s.n in a goroutine through reflection: no field
// store appears in the program, so the race with main's read is unseen.
func viaReflect(s *State) {
	go func() {
		reflect.ValueOf(s).Elem().Field(0).SetInt(1) // unseen: a write through reflect.Value
		s.r = 1                                      // want `State.r written in viaReflect func literal 1 \(goroutine started in viaReflect: viaReflect func literal 1\) races with its read in main`
	}()
}
