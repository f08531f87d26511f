package main

/*
#include <stdint.h>
static void bump(int64_t *p) { (*p)++; }
*/
import "C"

import "unsafe"

func init() { more = append(more, viaC) }

// viaC hands s.n's address to C, which writes it on another goroutine:
// C code has no SSA, so the write is unseen. (Without a C toolchain the
// go command leaves this file out, and the case with it.)
func viaC(s *State) {
	go func() {
		C.bump((*C.int64_t)(unsafe.Pointer(&s.n))) // unseen: a write in C
		s.c = 1                                    // want `State.c written in viaC func literal 1 \(goroutine started in viaC: viaC func literal 1\) races with its read in main`
	}()
}
