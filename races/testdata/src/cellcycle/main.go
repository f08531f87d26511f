// Package cellcycle: a variable a function literal captures (so it lives
// in a cell), set again and again from what was loaded from it (buf =
// buf[:0], buf = fill(buf)). Whether what it holds is the function's
// own, asked where it is passed to fill, is a cycle through the cell; it
// is answered at once, not by trying every store again at every level of
// the cycle (prometheus's tsdb snapshot writer, whose cell has seven such
// stores, ran for minutes). Each run of the handler fills its own
// buffer: nothing races. The package-level counter each run bumps does.
package main

import "net/http"

var flushed int

type record struct{ n int }

func fill(r *record, buf []byte) []byte {
	r.n++
	return append(buf, byte(r.n))
}

func snapshot(w http.ResponseWriter, req *http.Request) {
	var buf []byte
	r := &record{}
	flush := func() {
		w.Write(buf)
		buf = buf[:0]
	}
	buf = fill(r, buf)
	buf = buf[:0]
	buf = fill(r, buf)
	flush()
	buf = buf[:0]
	buf = fill(r, buf)
	buf = buf[:0]
	buf = fill(r, buf)
	flush()
	buf = buf[:0]
	buf = fill(r, buf)
	buf = buf[:0]
	buf = fill(r, buf)
	flush()
	flushed++ // want `flushed written in snapshot .* races with its write in snapshot`
}

func main() {
	http.HandleFunc("/snapshot", snapshot)
	http.ListenAndServe(":8080", nil)
}
