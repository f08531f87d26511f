//go:build amd64 || arm64

package lib

// Or calls an assembly helper; the Go body in noasm.go is atomic.
func Or(addr *Uint32, v uint32) {
	or(&addr.value, v)
}

//go:noescape
func or(addr *uint32, v uint32)

// OrDirect is assembly here; the Go body in noasm.go is atomic.
//
//go:noescape
func OrDirect(addr *uint32, v uint32)

// Racy is assembly here; the Go body in noasm.go writes plainly.
//
//go:noescape
func Racy(addr *uint32, v uint32)

// Mixed calls the atomic assembly helper but also writes plainly.
func Mixed(addr *Uint32, v uint32) {
	or(&addr.value, v)
	addr.value = 0
}

// Alias is assembly here; the Go body in noasm.go writes through a copy.
//
//go:noescape
func Alias(addr *uint32, v uint32)
