// Package stackdirs checks how directives resolve lock paths into another
// package's unexported fields.
package stackdirs

import "checklocksreal/ports"

type Stack struct {
	*ports.PortManager
}

// +checklocksexclude:s.PortManager.ephemeralMu
func (s *Stack) PortRange() uint16 { // want PortRange:`contract\(excludes s.PortManager.ephemeralMu\)`
	return s.PortManager.PortRange()
}

/* want `\+checklocksexclude s.PortManager.nosuch: type \*checklocksreal/ports.PortManager has no field nosuch` */ // +checklocksexclude:s.PortManager.nosuch
//
func (s *Stack) Misspelt() {}
