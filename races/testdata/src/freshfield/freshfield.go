// Package freshfield is a library whose methods run at once (they take
// the store's lock), among them Reopen, which opens a store of its own.
// Open makes a store, fills its map of files with new files, and then
// opens each one, taking it back out of the map (and resets each one,
// ranging over the map). A load from a map is whatever any code put
// there, and Rotate puts the shared store's files into its map too; but
// every entry ever put into such a map is new when it is put there, so
// what Open loads from the map of a store no other goroutine but its
// monitor has is a file only Open has. So is what it loads from a field
// that only ever holds new files (spare, last), though Rotate sets the
// shared store's too. Two runs of Reopen open different files, and Grow,
// under the lock, grows the shared store's files, never Open's.
//
// The writer Reopen starts on the store Open made, after Open, is also
// started by Restart on the shared store: Open's set-up of the files
// comes first all the same, since no writer could have them before Open
// made the store (madefirst).
//
// Fork puts one of the receiver's files, not a new one, into a new
// store's map of forks, and resets it: a race with Grow. The writer's
// read of the names races with Grow's renaming too.
package freshfield

import "sync"

type Store struct {
	mu    sync.Mutex
	files map[int]*file
	spare *file
	forks map[int]*file
	last  *file
	n     int
}

type file struct {
	mu   sync.Mutex // guards tag
	size int
	name string
	tag  string
}

// open sets a file up.
func (f *file) open(name string) {
	f.name = name
	f.size = len(name)
	f.tag = "open"
}

// newFile makes and opens a file.
func newFile(name string) *file {
	f := &file{}
	f.open(name)
	return f
}

// Open makes a store, starts its monitor, and opens the files it lists.
func Open(names []string) *Store {
	s := &Store{files: map[int]*file{}}
	go s.monitor()
	for i := range names {
		s.files[i] = &file{}
	}
	for i, name := range names {
		if f, ok := s.files[i]; ok {
			f.open(name)
		}
	}
	for _, f := range s.files {
		f.size = 0
	}
	s.spare = &file{}
	s.spare.size = 1
	s.last = newFile("last")
	println(s.last.size)
	return s
}

// monitor counts, under the lock.
func (s *Store) monitor() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// Reopen opens another store with as many files, and starts its writer.
func (s *Store) Reopen() *Store {
	s.mu.Lock()
	names := make([]string, s.n)
	s.mu.Unlock()
	t := Open(names)
	t.Restart()
	return t
}

// Restart starts the store's writer.
func (s *Store) Restart() {
	go s.writer()
}

// writer prints the names and tags of the files, with no lock.
func (s *Store) writer() {
	s.mu.Lock()
	fs := make([]*file, 0, len(s.files))
	for _, f := range s.files {
		fs = append(fs, f)
	}
	s.mu.Unlock()
	for _, f := range fs {
		println(f.name, f.tag) // want `file.name read in Store.writer .* races with its write in Store.Grow`
	}
}

// Tags reads the files' tags under their locks.
func (s *Store) Tags() (tags []string) {
	s.mu.Lock()
	for _, f := range s.files {
		f.mu.Lock()
		tags = append(tags, f.tag)
		f.mu.Unlock()
	}
	s.mu.Unlock()
	return tags
}

// Rotate opens a new file and adds it to the shared store, under its
// lock, and gives the store a new spare and a new last file.
func (s *Store) Rotate(name string) {
	f := newFile(name)
	s.mu.Lock()
	s.n++
	s.files[s.n] = f
	s.spare = newFile("spare")
	s.last = &file{}
	s.mu.Unlock()
}

// Fork makes a store whose first file is one of the receiver's, not a
// new one, and resets its size: a race with Grow.
func (s *Store) Fork() *Store {
	t := &Store{forks: map[int]*file{}}
	s.mu.Lock()
	t.forks[0] = s.files[0]
	s.mu.Unlock()
	t.forks[0].size = 0 // want `file.size written in Store.Fork \(exported method: Store.Fork\) races with its write in Store.Grow`
	return t
}

// Grow grows and renames the shared store's files, and grows its spare
// and last file, under its lock.
func (s *Store) Grow(n int) {
	s.mu.Lock()
	for _, f := range s.files {
		f.size += n
		f.name += "+"
	}
	s.spare.size += n
	s.last.size += n
	s.mu.Unlock()
}
