// Package mid hands out lib's type; it has no directives.
package mid

import "guarantee/lib"

var Shared = &lib.T{}

func Get() *lib.T { return Shared }
