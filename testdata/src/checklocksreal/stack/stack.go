// Package stack names ports.PortManager's unexported lock through an
// embedded field, as gVisor's stack.Stack does.
package stack

import "checklocksreal/ports"

type Stack struct {
	*ports.PortManager
}

// +checklocksexclude:s.PortManager.ephemeralMu
func (s *Stack) PortRange() uint16 {
	return s.PortManager.PortRange()
}

// Holding the lock across a call that excludes it is still reported.
func (s *Stack) Locked() uint16 {
	s.LockEphemeral()
	defer s.UnlockEphemeral()
	return s.PortRange() // want `call to s.PortRange needs s.PortManager.ephemeralMu not held`
}

func (s *Stack) Unlocked() uint16 {
	return s.PortRange()
}
