// Package use touches checklocks-annotated fields of another package.
package use

import "checklocks"

func Inc(s *checklocks.Shared) {
	s.Mu.Lock()
	s.Count++
	s.Mu.Unlock()
}

func Peek(s *checklocks.Shared) int {
	return s.Count // want `s.Count read while s.Mu is not known to be held`
}
