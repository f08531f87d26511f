package resultcache

import (
	"bytes"
	"encoding/gob"
)

// A pack is many entries kept as the data of one: a module's first run
// writes one file, not one per package (creating files is what costs).
// Its entries are looked up in memory once the pack is read; the pack's
// own checksum covers them all.

// EncodePack encodes entries as one pack.
func EncodePack(entries map[Key][]byte) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(entries); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodePack decodes a pack's entries.
func DecodePack(data []byte) (map[Key][]byte, error) {
	var m map[Key][]byte
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
