package races

import "golang.org/x/tools/go/ssa"

// Heap cloning for factories. The points-to analysis names an object by
// its allocation site, so everything one constructor makes is one
// object whoever calls it: quic-go's client and server connections each
// call newConnIDGenerator, and their run loops, each on its own
// connection, were taken to share one generator. A call of a factory (a
// function whose result is always an object it allocates, objects.go's
// freshResult) gets a copy of the factory's body of its own, with its
// own nodes and its own allocations, so that what each call site makes
// is told apart. Copies nest (a factory's factories, up to
// maxCloneDepth), never recurse, and stop at a budget of instructions;
// what the rest of the mode asks of a factory's own values is the union
// over its copies (objects, nodesOf).

const (
	maxCloneDepth = 2
	// maxCloneBody bounds the factories copied (instructions); bigger
	// ones are shared by their callers as before.
	maxCloneBody = 400
	// maxCloned bounds the instructions copied in all.
	maxCloned = 400000
)

// cloneFrame is one copy of a factory's body: the nodes of its values,
// of its results, and of its calls' results.
type cloneFrame struct {
	nodes   map[ssa.Value]int
	returns map[int]int
	parts   map[ssa.Value]map[resultKey]int
}

// frameOf is the copy v's function is being built in, nil outside one.
func (p *points) frameOf(v ssa.Value) *cloneFrame {
	if len(p.frames) == 0 {
		return nil
	}
	var fn *ssa.Function
	switch x := v.(type) {
	case *ssa.Parameter:
		fn = x.Parent()
	case *ssa.FreeVar:
		fn = x.Parent()
	case ssa.Instruction:
		fn = x.Parent()
	}
	if fn == nil {
		return nil
	}
	return p.frames[fn]
}

// clones reports whether a call of callee gets a copy of its body.
func (p *points) clones(callee *ssa.Function) bool {
	if p.factory == nil || p.frames[callee] != nil || len(p.frames) >= maxCloneDepth || !p.factory(callee) {
		return false
	}
	size := 0
	for _, b := range callee.Blocks {
		size += len(b.Instrs)
	}
	return size <= maxCloneBody && p.cloned+size <= maxCloned
}

// cloneCall builds a copy of callee's body for site (in fn) and passes
// the arguments in and its results back, as call does for the shared
// body.
func (p *points) cloneCall(site ssa.CallInstruction, callee *ssa.Function, args []ssa.Value, callees func(*ssa.Function, ssa.CallInstruction) []*ssa.Function) {
	in := make([]int, len(args))
	for i, a := range args {
		in[i] = p.value(a) // in the caller's frame
	}
	for _, b := range callee.Blocks {
		p.cloned += len(b.Instrs)
	}
	p.frames[callee] = &cloneFrame{nodes: map[ssa.Value]int{}, returns: map[int]int{}, parts: map[ssa.Value]map[resultKey]int{}}
	for i, n := range in {
		if i < len(callee.Params) {
			p.flow(n, p.node(callee.Params[i]))
		}
	}
	p.function(callee, callees)
	results := callee.Signature.Results().Len()
	out := make([]int, results)
	for i := range out {
		out[i] = p.returnOf(callee, i)
	}
	delete(p.frames, callee)
	if v := site.Value(); v != nil {
		for i, n := range out {
			p.flow(n, p.resultOf(v, i))
		}
	}
}

// frameNode is v's node in frame f, made on first use.
func (p *points) frameNode(f *cloneFrame, v ssa.Value) int {
	if n, ok := f.nodes[v]; ok {
		return n
	}
	n := p.newNode()
	f.nodes[v] = n
	p.ntype[n] = v.Type()
	p.extra[v] = append(p.extra[v], n)
	return n
}

// frameReturn is result i's node in frame f.
func (p *points) frameReturn(f *cloneFrame, i int) int {
	n, ok := f.returns[i]
	if !ok {
		n = p.newNode()
		f.returns[i] = n
	}
	return n
}

// nodesOf is v's node and those of its copies.
func (p *points) nodesOf(v ssa.Value) []int {
	n, ok := p.nodes[v]
	extra := p.extra[v]
	if !ok {
		return extra
	}
	if len(extra) == 0 {
		return []int{n}
	}
	return append([]int{n}, extra...)
}
