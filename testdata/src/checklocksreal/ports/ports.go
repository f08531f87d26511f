// Package ports has a lock in an unexported field, named from another
// package's annotations (gVisor's pkg/tcpip/ports and stack).
package ports

import "sync"

type PortManager struct {
	ephemeralMu sync.RWMutex

	// +checklocks:ephemeralMu
	firstEphemeral uint16
}

// +checklocksexclude:pm.ephemeralMu
func (pm *PortManager) PortRange() uint16 {
	pm.ephemeralMu.RLock()
	defer pm.ephemeralMu.RUnlock()
	return pm.firstEphemeral
}

// +checklocksacquire:pm.ephemeralMu
func (pm *PortManager) LockEphemeral() { pm.ephemeralMu.Lock() }

// +checklocksrelease:pm.ephemeralMu
func (pm *PortManager) UnlockEphemeral() { pm.ephemeralMu.Unlock() }
