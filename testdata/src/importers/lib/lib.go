// Package lib is annotated. Packages that import it without directives of
// their own are checked against its contracts (guarded fields, function
// contracts) and nothing else.
package lib

import "sync"

type Conn struct {
	Mu    sync.Mutex     //guard:noblock
	State int            //guard:by Mu
	Cache map[string]int //guard:by Mu
}

//guard:holds c.Mu
func (c *Conn) BumpLocked() { c.State++ }

//guard:acquires c.Mu
func (c *Conn) Acquire() { c.Mu.Lock() }

//guard:releases c.Mu
func (c *Conn) Release() { c.Mu.Unlock() }
