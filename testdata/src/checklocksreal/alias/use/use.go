// Package use calls into alias: the +checklocksalias equation of
// alias.Owner applies here too.
package use

import "checklocksreal/alias"

func Touch(o *alias.Owner) {
	o.Mu.Lock()
	defer o.Mu.Unlock()
	o.Sub.Touch()
}

func TouchUnlocked(o *alias.Owner) {
	o.Sub.Touch() // want `call to o.Sub.Touch needs o.Sub.Owner.Mu locked`
}
