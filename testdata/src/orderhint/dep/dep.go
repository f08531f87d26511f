// Package dep has a lock the packages of orderhint take with their own.
package dep

import "sync"

type Pool struct {
	Mu   sync.Mutex
	Free int //guard:by Mu
}
