//go:build !amd64 && !arm64

package lib

import "sync/atomic"

func Or(addr *Uint32, v uint32) {
	for {
		o := addr.Load()
		if atomic.CompareAndSwapUint32(&addr.value, o, o|v) {
			return
		}
	}
}

func OrDirect(addr *uint32, v uint32) {
	for {
		o := atomic.LoadUint32(addr)
		if atomic.CompareAndSwapUint32(addr, o, o|v) {
			return
		}
	}
}

func Racy(addr *uint32, v uint32) {
	*addr |= v
}

func Mixed(addr *Uint32, v uint32) {
	for {
		o := addr.Load()
		if atomic.CompareAndSwapUint32(&addr.value, o, o|v) {
			return
		}
	}
}

func Alias(addr *uint32, v uint32) {
	atomic.StoreUint32(addr, v)
	p := addr
	*p = v
}
