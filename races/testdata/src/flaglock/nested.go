package flaglock

import "sync"

// DB runs each command's body under its lock, except when the command
// comes from a script, which the script's own command already runs
// under the lock (miniredis's withTx: if ctx.nested { cb(c, ctx);
// return }; m.Lock(); cb(c, ctx); m.Unlock()). Calling the same body
// both ways says the flag stands for holding the lock: the body's
// accesses are under it on both ways.
type DB struct {
	mu   sync.Mutex
	keys map[string]string
	ops  int
}

type cmdCtx struct {
	nested bool
}

type command func(db *DB, ctx *cmdCtx)

func (db *DB) run(ctx *cmdCtx, cb command) {
	if ctx.nested {
		cb(db, ctx) // the script's command holds db.mu
		return
	}
	db.mu.Lock()
	cb(db, ctx)
	db.mu.Unlock()
}

func set(db *DB, ctx *cmdCtx) {
	db.keys["k"] = "v" // under db.mu on both ways: not reported
	db.ops++
}

// eval runs a script under the lock; the script's commands run nested.
func eval(db *DB, ctx *cmdCtx) {
	inner := &cmdCtx{nested: true}
	db.run(inner, set)
}

// Stats reads ops with no lock: a race with every command.
func (db *DB) Stats() int {
	return db.ops // want `DB.ops read in DB.Stats \(exported method: DB.Stats\) races with its write in set`
}

// Serve runs commands.
func (db *DB) Serve(ctx *cmdCtx) {
	db.run(ctx, set)
	db.run(ctx, eval)
}

// block runs a blocking command's body under the lock unless the
// context says its caller holds it already (miniredis's blocking: if
// !ctx.nested { m.Lock(); defer m.Unlock() }).
func (db *DB) block(ctx *cmdCtx, cb command) {
	if !ctx.nested {
		db.mu.Lock()
		defer db.mu.Unlock()
	}
	cb(db, ctx)
}

func pop(db *DB, ctx *cmdCtx) {
	delete(db.keys, "k") // under db.mu on both ways: not reported
}

// Pop runs a blocking command.
func (db *DB) Pop(ctx *cmdCtx) {
	db.block(ctx, pop)
}
