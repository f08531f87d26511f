/*
Package guardinfer defines the rule that infers guards for code without
directives.

# Analyzer guardinfer

guardinfer: infer which lock guards a field from how the package uses it (off by default)

Turned on with -guardinfer.on (guardvet -infer), it considers every field
without directives whose struct contains or embeds a lock. It records the
field's accesses in the package (objects not yet published excluded) with
the locks held at each, and reports the accesses missing lock L only when
one lock L of the same object is held at no fewer than -guardinfer.ratio
(0.9) of at least -guardinfer.min (4) accesses, and at least one access is
a write:

	c.state is accessed with c.mu held at 9 of 10 sites (e.g. conn.go:42); here it is not

The suggested fix adds //guard:by L to the field, so that from then on the
guardedby rule checks it. A field touched through sync/atomic at some sites
and plainly at others is reported at the plain sites.
*/
package guardinfer
