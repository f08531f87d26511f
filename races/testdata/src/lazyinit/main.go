// Package main: a lazily built field, checked for nil and then set, from
// two goroutines (GoKer's shape from istio and Knative).
package main

type Cache struct{ m map[string]int }

func (c *Cache) get(k string) int {
	if c.m == nil {
		c.m = map[string]int{} // want `Cache.m written in Cache.get .* races with its (read|write) in Cache.get`
	}
	return c.m[k]
}

func main() {
	c := &Cache{}
	done := make(chan bool)
	go func() {
		c.get("a")
		done <- true
	}()
	c.get("b")
	<-done
}
