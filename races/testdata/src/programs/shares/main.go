// Command shares hands a counter to a goroutine and adds to it too.
package main

import "programs/counter"

func main() {
	c := counter.New()
	go c.Add()
	c.Add()
}
