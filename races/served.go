package races

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// When handlers start.
//
// A handler registered on a ServeMux runs on the goroutines of a server
// that serves that mux, so it runs after the registration and after the
// call that started that server: http.ListenAndServe(addr, mux),
// srv.ListenAndServe() with srv.Handler the mux, and the TLS and Serve
// forms. mochi-mqtt's Websocket listener registers its handler on a mux
// of its own in Init, and its Serve, run later in another goroutine,
// sets up the server's hooks and then calls ListenAndServe: the hooks'
// set-up happens before every request.
//
// So an access happens before a handler when it happens before every
// call in the program that can serve the handler's mux, as it would if
// that call were a go statement starting the handler: it comes before
// the call in the call's goroutine (one instance of it), or before the go
// statement that starts a goroutine on the way to the call. This holds
// only if nothing else can serve the mux: a mux (or a server holding it)
// handed to a dependency, to another function of net/http (http.Handle,
// httptest.NewServer, StripPrefix), called through an interface (a
// middleware's next.ServeHTTP), or returned to a library's users, may
// be served from anywhere, and its handlers start where they are
// registered, as before.

// serveArg is, for each function that serves a handler, which argument
// is the handler; -1 for the methods of *http.Server, whose Handler field
// is.
var serveArg = map[string]int{
	"(*net/http.Server).ListenAndServe":    -1,
	"(*net/http.Server).ListenAndServeTLS": -1,
	"(*net/http.Server).Serve":             -1,
	"(*net/http.Server).ServeTLS":          -1,
	"net/http.ListenAndServe":              1,
	"net/http.ListenAndServeTLS":           3,
	"net/http.Serve":                       1,
	"net/http.ServeTLS":                    1,
}

// serveCall is a call that serves a handler.
type serveCall struct {
	fn    *ssa.Function
	instr ssa.CallInstruction
	arg   int
}

// handOff is a call that may keep or use what it is given beyond what
// the analysis follows: values are what it is given.
type handOff struct {
	values []ssa.Value
}

// serveScan is what served works from, found once: the serve calls and
// the hand-offs of the program's own code, and what its exported
// functions return where the roots are a library's API.
type serveScan struct {
	calls    []serveCall
	handOffs []handOff
	// parts and holds are points' holders, found once.
	parts, holds map[int][]int
	memo         map[string]*muxServing
}

// muxServing is what serves a mux: the calls, if only they can.
type muxServing struct {
	calls []serveCall
	ok    bool
}

// scanServing finds the serve calls and hand-offs.
func (a *run) scanServing() *serveScan {
	if a.serving != nil {
		return a.serving
	}
	s := &serveScan{memo: map[string]*muxServing{}}
	a.serving = s
	for _, fn := range a.p.ownFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case ssa.CallInstruction:
					a.scanCall(s, fn, x)
				case *ssa.Return:
					if a.library && exportedFunc(fn) {
						s.handOffs = append(s.handOffs, handOff{values: x.Results})
					}
				}
			}
		}
	}
	return s
}

// scanCall records site, in fn, as a serve call or a hand-off.
func (a *run) scanCall(s *serveScan, fn *ssa.Function, site ssa.CallInstruction) {
	common := site.Common()
	if common.IsInvoke() {
		// A call through an interface is followed where it can run
		// only the program's own methods; one that may run others
		// (a handler's ServeHTTP, a dependency's type) hands off.
		callees := a.p.callees(fn, site)
		if len(callees) == 0 || !allOwn(a.p, callees) {
			s.handOffs = append(s.handOffs, handOff{values: append([]ssa.Value{common.Value}, common.Args...)})
		}
		return
	}
	callee := common.StaticCallee()
	if callee == nil || a.p.ownFunc(callee) {
		return // a call of a function value the call graph resolves, or of code followed
	}
	name := calleeName(callee)
	if i, ok := serveArg[name]; ok {
		s.calls = append(s.calls, serveCall{fn: fn, instr: site, arg: i})
		return
	}
	args := common.Args
	path := ""
	if callee.Pkg != nil {
		path = callee.Pkg.Pkg.Path()
	}
	switch {
	case strings.HasPrefix(name, "(*net/http.Server)."):
		return // Shutdown, Close, RegisterOnShutdown: they serve nothing
	case strings.HasPrefix(name, "(*net/http.ServeMux).") && callee.Name() != "ServeHTTP":
		args = args[1:] // Handle, HandleFunc: the mux registers; a handler it is given is handed off
	case path != "net/http" && !strings.HasPrefix(path, "net/http/") && stdlib(callee):
		return // the standard library's word: it uses what it is given until it returns
	}
	s.handOffs = append(s.handOffs, handOff{values: args})
}

// allOwn reports whether every function of fns has a body in the
// packages named.
func allOwn(p *program, fns []*ssa.Function) bool {
	for _, f := range fns {
		if !p.ownFunc(f) {
			return false
		}
	}
	return true
}

// served reports whether the handler root c, registered on a mux, starts
// after x: x happens before every call that can serve the mux.
func (a *run) served(x site, c *root) bool {
	ms := a.muxServed(c.mux)
	if !ms.ok {
		return false
	}
	reached := false
	for _, call := range ms.calls {
		for _, r := range a.roots {
			if r.top != c.top || r.ctxs[call.fn] == nil {
				continue
			}
			reached = true
			if !a.startOrders(x, r, call.fn, call.instr) {
				return false
			}
		}
	}
	return reached
}

// startOrders reports whether x happens before instr, in fn, run by root
// r: before it in r (one instance of r), or before the start of a
// goroutine on r's way from x's.
func (a *run) startOrders(x site, r *root, fn *ssa.Function, instr ssa.Instruction) bool {
	if r == x.root {
		return !r.multi && a.before(r, x.fn, x.acc.instr, x.acc.base, fn, instr)
	}
	for c := r; c != nil; c = c.parent {
		if c.parent == x.root {
			return a.before(x.root, x.fn, x.acc.instr, x.acc.base, c.siteFn, c.site)
		}
	}
	return false
}

// muxServed is what serves the mux whose objects are mux: the serve
// calls whose handler may be it (a serve call whose handler the analysis
// does not know may be it too), and ok if nothing else can.
func (a *run) muxServed(mux objSet) *muxServing {
	s := a.scanServing()
	key := objKey(mux)
	if ms, ok := s.memo[key]; ok {
		return ms
	}
	ms := &muxServing{ok: true}
	s.memo[key] = ms
	held := objSet{} // the mux and the servers holding it
	for o := range mux {
		held[o] = true
	}
	for _, call := range s.calls {
		handler, servers, none := a.servedBy(call)
		if none || handler != nil && !mayAlias(handler, mux) {
			continue
		}
		ms.calls = append(ms.calls, call)
		for o := range servers {
			held[o] = true
		}
	}
	if len(ms.calls) == 0 {
		ms.ok = false
		return ms
	}
	// A value the analysis lost track of (unknownObj) came from a
	// dependency, which had it from a hand-off seen where it is made.
	holders := a.holdersOf(s, held)
	delete(holders, unknownObj)
	for _, h := range s.handOffs {
		for _, v := range h.values {
			if v != nil && pointerLike(v.Type()) && intersects(a.pts.objects(v), holders) && a.mayCarryServer(v) {
				ms.ok = false
				return ms
			}
		}
	}
	return ms
}

// mayCarryServer reports whether v's type lets it hold a ServeMux or an
// http.Server, directly or through fields, pointers and elements: what
// the points-to analysis says v may hold is checked against what the
// type system allows (an interface value by the types of the objects it
// may hold; an interface type in a field holds a mux or a server only if
// they implement it).
func (a *run) mayCarryServer(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return carries(mi.X.Type())
	}
	if !types.IsInterface(v.Type()) {
		return carries(v.Type())
	}
	objs := a.pts.objects(v)
	if len(objs) == 0 || objs[unknownObj] {
		return true
	}
	for o := range objs {
		t := a.pts.objType[o]
		if t == nil || carries(types.NewPointer(t)) {
			return true
		}
	}
	return false
}

// carries reports whether a value of type t can hold a *http.ServeMux or
// a *http.Server.
func carries(t types.Type) bool {
	return anyPart(t, func(t types.Type) (bool, bool) {
		switch u := t.(type) {
		case *types.Named:
			if o := u.Obj(); o.Pkg() != nil && o.Pkg().Path() == "net/http" && (o.Name() == "ServeMux" || o.Name() == "Server") {
				return true, true
			}
		case *types.Interface:
			return u.NumMethods() == 0 || implementedByServer(u), true
		case *types.Signature:
			return true, true // a closure may capture one
		}
		return false, false
	})
}

// implementedByServer reports whether *http.ServeMux or *http.Server
// implements iface, judged by method names (their packages are not at
// hand here): an interface asking only for ServeHTTP, or for methods
// *http.Server has.
func implementedByServer(iface *types.Interface) bool {
	server := map[string]bool{"ServeHTTP": true, "Handle": true, "HandleFunc": true, "Handler": true,
		"ListenAndServe": true, "ListenAndServeTLS": true, "Serve": true, "ServeTLS": true, "Shutdown": true,
		"Close": true, "RegisterOnShutdown": true, "SetKeepAlivesEnabled": true}
	for i := 0; i < iface.NumMethods(); i++ {
		if !server[iface.Method(i).Name()] {
			return false
		}
	}
	return true
}

// servedBy is what a serve call serves: the objects its handler may be
// (nil if unknown), and the servers whose Handler field holds it; none if
// it serves http.DefaultServeMux (a nil handler), which is no mux of the
// program's own.
func (a *run) servedBy(call serveCall) (handler, servers objSet, none bool) {
	args := call.instr.Common().Args
	if call.arg >= 0 {
		if call.arg >= len(args) {
			return nil, nil, false
		}
		if c, ok := args[call.arg].(*ssa.Const); ok && c.IsNil() {
			return nil, nil, true
		}
		h := a.pts.objects(args[call.arg])
		if len(h) == 0 || h[unknownObj] {
			return nil, nil, false
		}
		return h, nil, false
	}
	srv := a.pts.objects(args[0])
	field := handlerField(args[0].Type())
	if len(srv) == 0 || srv[unknownObj] || field < 0 {
		return nil, nil, false
	}
	fs, ok := a.pts.fieldsOf(srv, field)
	if !ok {
		return nil, srv, false
	}
	h, ok := a.pts.contents(fs)
	if !ok {
		return nil, srv, false
	}
	return h, srv, false
}

// handlerField is the index of the Handler field of the http.Server t
// points to, -1 if it has none.
func handlerField(t types.Type) int {
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "Handler" {
			return i
		}
	}
	return -1
}

// holdersOf is objs and the objects that hold one of them directly: a
// struct with a field pointing to one, a slice or map of them, a closure
// capturing one (and the structs those are fields of). A dependency given
// one of these can serve the mux; one given an object that holds them
// only further down would have to walk the program's own types by
// reflection to find it, which the mode does not follow anywhere
// (docs/rules/races.md).
func (a *run) holdersOf(s *serveScan, objs objSet) objSet {
	if s.parts == nil {
		s.parts, s.holds = a.pts.holders()
	}
	out := objSet{}
	var level0, level1 []int
	add := func(o int, into *[]int) {
		if !out[o] {
			out[o] = true
			*into = append(*into, o)
		}
	}
	for o := range objs {
		add(o, &level0)
	}
	for i := 0; i < len(level0); i++ {
		o := level0[i]
		for _, p := range s.parts[o] {
			add(p, &level0)
		}
		for _, h := range s.holds[o] {
			add(h, &level1)
		}
	}
	for i := 0; i < len(level1); i++ {
		for _, p := range s.parts[level1[i]] {
			add(p, &level1)
		}
	}
	return out
}

// objKey names a set of objects.
func objKey(objs objSet) string {
	var b strings.Builder
	for _, o := range sortedObjs(objs) {
		b.WriteString(strconv.Itoa(o))
		b.WriteByte(',')
	}
	return b.String()
}

// serveSpawn recognises site, in fn, as a call (or a go statement) that
// serves a handler of the program's own: it starts the handler's
// functions, once per request.
func (a *run) serveSpawn(fn *ssa.Function, site ssa.CallInstruction) (spawn, bool) {
	callee := site.Common().StaticCallee()
	if callee == nil {
		return spawn{}, false
	}
	i, ok := serveArg[calleeName(callee)]
	if !ok {
		return spawn{}, false
	}
	fns := a.servedHandlers(fn, site, i)
	if len(fns) == 0 {
		return spawn{}, false
	}
	return spawn{fns: fns, label: "handler " + a.p.name(fns[0]), multi: true, perRequest: true}, true
}

// servedHandlers is the program's own ServeHTTP methods (or handler
// functions) a serve call runs for each request when it is handed a
// handler that is not a mux: http.ListenAndServe(addr, h), or
// srv.ListenAndServe() with srv a server fn makes and sets Handler of.
// Each request runs them in a goroutine of its own, started after what
// comes before the call, like a go statement there. A mux's handlers
// are started where they are registered instead.
func (a *run) servedHandlers(fn *ssa.Function, site ssa.CallInstruction, arg int) []*ssa.Function {
	args := site.Common().Args
	var h ssa.Value
	switch {
	case arg >= 0 && arg < len(args):
		h = args[arg]
	case arg < 0 && len(args) > 0:
		h = storedHandler(fn, args[0])
	}
	if h == nil {
		return nil
	}
	var own []*ssa.Function
	for _, f := range a.funcsOf(h) {
		if a.p.ownFunc(f) {
			own = append(own, f)
		}
	}
	return own
}

// storedHandler is what fn stores into the Handler field of srv, a
// server fn allocates; nil if fn stores none there, or more than one.
func storedHandler(fn *ssa.Function, srv ssa.Value) ssa.Value {
	alloc, ok := srv.(*ssa.Alloc)
	field := handlerField(srv.Type())
	if !ok || field < 0 {
		return nil
	}
	var h ssa.Value
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				if h != nil {
					return nil
				}
				h = st.Val
			}
		}
	}
	return h
}
