package runcache

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// exportData returns a reader of the export data in a file go list
// -export names, for gcexportdata.Read. Up to Go 1.27 that file is the
// compiler's archive, whose __.PKGDEF member holds the export data after
// its object headers, between "$$B\n" and "\n$$\n"; from Go 1.28 go list
// -export writes the export data alone, which is returned as it is.
//
// gcexportdata.NewReader did this, and is deprecated: it stops reading
// archives in Go 1.29. Its suggested replacement, go/packages loading
// types from export data, would give the incremental path's imports types
// of its own, outside the universes the path shares between source and
// export data (incremental.universe), so the archive is read here.
func exportData(r io.Reader) (io.Reader, error) {
	buf := bufio.NewReader(r)
	const arch = "!<arch>\n"
	magic, err := buf.Peek(len(arch))
	if err != nil || string(magic) != arch {
		return buf, nil // not an archive: export data alone, or an error Read reports
	}
	buf.Discard(len(arch))
	// An archive member header: name (16), date (12), uid (6), gid (6),
	// mode (8), size (10), "`\n" (2).
	var hdr [60]byte
	if _, err := io.ReadFull(buf, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading archive header: %v", err)
	}
	if name := strings.TrimSpace(string(hdr[:16])); name != "__.PKGDEF" {
		return nil, fmt.Errorf("archive's first member is %q, not __.PKGDEF", name)
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("bad __.PKGDEF size %q", hdr[48:58])
	}
	member := io.LimitReader(buf, size)
	lines := bufio.NewReader(member)
	for { // the object headers ("go object ...", "build id ..."), then "$$B"
		line, err := lines.ReadString('\n')
		if err != nil {
			return nil, errors.New("no export data section ($$B) in __.PKGDEF")
		}
		if line == "$$B\n" {
			break
		}
	}
	data, err := io.ReadAll(lines)
	if err != nil {
		return nil, err
	}
	data, ok := bytes.CutSuffix(data, []byte("\n$$\n"))
	if !ok {
		return nil, errors.New("export data section does not end with \\n$$\\n")
	}
	return bytes.NewReader(data), nil
}
