/*
Package noblock defines the rule that keeps blocking operations out of
critical sections.

# Analyzer noblock

noblock: report blocking operations while holding a lock marked //guard:noblock

A lock field or variable marked //guard:noblock must never be held across
an operation that can block; with the flag -noblock.all, every lock is
treated so. Blocking operations are:

  - a channel send or receive, and range over a channel, outside a select;
    a select without a default case;
  - time.Sleep;
  - (*sync.WaitGroup).Wait, and (*sync.Cond).Wait while another lock is held;
  - Read, Write and Close on *os.File and on net.Conn values, and the
    io.Copy/CopyN/CopyBuffer/ReadAll/ReadFull family on them;
  - (*exec.Cmd).Wait, Run, Output and CombinedOutput;
  - (*http.Client).Do, Get, Post, PostForm, Head and the http.Get family;
  - any function marked //guard:blocks, and any function (in a package with
    guardvet directives) that reaches one of these, directly or through
    other functions; such functions carry a fact naming the chain.

The message names the blocking operation, the chain of calls that reaches
it, and the held lock. The usual fix is the snapshot pattern: copy what is
needed under the lock, release it, then block.
*/
package noblock

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
