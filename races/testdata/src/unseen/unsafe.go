package main

import "unsafe"

// viaUnsafe writes s.n in a goroutine through a pointer computed with
// unsafe: the store is to an *int64 the analysis cannot tie to the field.
func viaUnsafe(s *State) {
	go func() {
		*(*int64)(unsafe.Add(unsafe.Pointer(s), unsafe.Offsetof(s.n))) = 2 // unseen: a write through unsafe pointer arithmetic
		s.u = 1                                                            // want `State.u written in viaUnsafe func literal 1 \(goroutine started in viaUnsafe: viaUnsafe func literal 1\) races with its read in main`
	}()
}
