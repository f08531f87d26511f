package driver

import (
	"flag"
	"fmt"
	"io"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/runcache"
	"github.com/guardvet/guardvet/internal/resultcache"
)

// cacheCommand is guardvet cache dir|clean [-cache DIR]: print the cache's
// directory, or empty it.
func cacheCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardvet cache", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dirFlag := fs.String("cache", "", "the cache directory, as for a run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: guardvet cache dir|clean [-cache DIR]\n  dir    print the result cache's directory (\"off\" when it is turned off)\n  clean  remove every entry")
	}
	if len(args) == 0 {
		fs.Usage()
		return output.ExitError
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 || (verb != "dir" && verb != "clean") {
		if err == nil {
			fs.Usage()
		}
		return output.ExitError
	}
	dir, on := runcache.Dir(*dirFlag)
	switch {
	case verb == "dir" && !on:
		fmt.Fprintln(stdout, "off")
	case verb == "dir":
		fmt.Fprintln(stdout, dir)
	case !on:
		fmt.Fprintln(stderr, "guardvet cache clean: the cache is off ($"+runcache.EnvCache+"=off)")
		return output.ExitError
	default:
		c, err := resultcache.Open(dir)
		if err == nil {
			err = c.Clean()
		}
		if err != nil {
			fmt.Fprintf(stderr, "guardvet cache clean: %v\n", err)
			return output.ExitError
		}
	}
	return output.ExitClean
}
