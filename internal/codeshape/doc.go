// Package codeshape holds the tests that keep guardvet's own code in the
// shape docs/how-it-works.md describes: no function over 80 lines and no
// file over 800 lines without a reason written in its doc comment, and no
// package-level variable written while guardvet runs, except through flag
// parsing. It has no code of its own.
package codeshape
