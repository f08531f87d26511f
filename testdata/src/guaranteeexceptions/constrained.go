//go:build guardvet_never

package guaranteeexceptions

func excluded(c *C) {
	c.n++ // exception: files the build constraints exclude are not checked
}
