package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/executor"
)

// The metadata methods export_llm writes (extension/llm/runner/constants.h).
const (
	MethodMaxSeqLen          = "get_max_seq_len"
	MethodMaxContextLen      = "get_max_context_len"
	MethodVocabSize          = "get_vocab_size"
	MethodBOSID              = "get_bos_id"
	MethodEOSIDs             = "get_eos_ids"
	MethodUseKVCache         = "use_kv_cache"
	MethodUseSDPAWithKVCache = "use_sdpa_with_kv_cache"
	MethodEnableDynamicShape = "enable_dynamic_shape"
)

// Errors a Generator's calls wrap.
var (
	// ErrStop, returned by a Config.OnToken callback, ends generation cleanly (the runner's
	// stop()): Generate returns what it generated and no error.
	ErrStop = errors.New("llm: stop")
	// ErrContextFull: the prompt or the requested tokens do not fit the model's context.
	ErrContextFull = errors.New("llm: context full")
	// ErrConfig: a Config or prompt the runner refuses (a temperature outside [0, 1], an empty
	// prompt without a prior Prefill, no room for a new token).
	ErrConfig = errors.New("llm: bad generation config")
	// ErrModel: the program is not a decoder the runner can drive (no get_max_seq_len, forward's
	// inputs or outputs of the wrong kind).
	ErrModel = errors.New("llm: not an LLM program")
)

// Metadata is what the runner reads from a model and its tokenizer (get_llm_metadata), with its
// defaults for methods a program lacks.
type Metadata struct {
	MaxSeqLen          int   // longest chunk one prefill call takes
	MaxContextLen      int   // KV cache positions (MaxSeqLen when the program does not say)
	VocabSize          int   // the tokenizer's, as in the runner (ModelVocabSize is the program's)
	ModelVocabSize     int   // get_vocab_size, 0 if absent: token ids fed must be below it
	BOS                int   // the tokenizer's
	EOS                []int // get_eos_ids, else the tokenizer's EOS
	UseKVCache         bool  // default true
	UseSDPAWithKVCache bool
	EnableDynamicShape bool // prefill in one call of the whole chunk (else one token per call)
}

// ReadMetadata reads a model's metadata methods as the runner does.
func ReadMetadata(m *etgo.Module, tok Tokenizer) (Metadata, error) {
	md := Metadata{MaxSeqLen: 128, MaxContextLen: 128, UseKVCache: true, BOS: tok.BOS(), VocabSize: tok.VocabSize()}
	if !m.HasMethod(MethodMaxSeqLen) {
		return md, fmt.Errorf("%w: the program has no %s method, which the runner requires", ErrModel, MethodMaxSeqLen)
	}
	ints := []struct {
		name string
		dst  *int
	}{{MethodMaxSeqLen, &md.MaxSeqLen}, {MethodMaxContextLen, &md.MaxContextLen}, {MethodVocabSize, &md.ModelVocabSize}}
	for _, c := range ints {
		if !m.HasMethod(c.name) {
			continue
		}
		v, err := m.ConstantInt(c.name)
		if err != nil {
			return md, fmt.Errorf("%w: %v", ErrModel, err)
		}
		if v < 1 || v > math.MaxInt32 {
			return md, fmt.Errorf("%w: %s is %d", ErrModel, c.name, v)
		}
		*c.dst = int(v)
	}
	if !m.HasMethod(MethodMaxContextLen) {
		md.MaxContextLen = md.MaxSeqLen
	}
	bools := []struct {
		name string
		dst  *bool
	}{{MethodUseKVCache, &md.UseKVCache}, {MethodUseSDPAWithKVCache, &md.UseSDPAWithKVCache}, {MethodEnableDynamicShape, &md.EnableDynamicShape}}
	for _, c := range bools {
		if !m.HasMethod(c.name) {
			continue
		}
		v, err := m.ConstantInt(c.name)
		if err != nil {
			return md, fmt.Errorf("%w: %v", ErrModel, err)
		}
		*c.dst = v != 0
	}
	md.EOS = []int{tok.EOS()}
	if m.HasMethod(MethodEOSIDs) {
		ids, err := m.ConstantInts(MethodEOSIDs)
		if err != nil {
			return md, fmt.Errorf("%w: %v", ErrModel, err)
		}
		md.EOS = md.EOS[:0]
		for _, id := range ids {
			md.EOS = append(md.EOS, int(id))
		}
	}
	return md, nil
}

// Config is one generation's settings: GenerationConfig of the runner, with Go zero values.
type Config struct {
	// MaxNewTokens bounds the tokens generated (0: as many as the context holds, the runner's -1).
	MaxNewTokens int
	// SeqLen bounds prompt and generated tokens together (0: the context length).
	SeqLen int
	// Temperature: 0 picks the most likely token (greedy); up to 1 samples (the runner refuses
	// more). The first token, which prefill yields, is always greedy, as in the runner.
	Temperature float32
	// TopP is the nucleus for sampling (0: DefaultTopP, the runner's fixed 0.9; 1 or more: the
	// whole distribution). TopK, when positive, samples among the K most likely instead.
	TopP float32
	TopK int
	// Seed seeds the sampler (0: from the clock, as the runner seeds from time()).
	Seed uint64
	// NumBOS and NumEOS ask the tokenizer for BOS/EOS tokens around the prompt.
	NumBOS, NumEOS int
	// Echo passes the prompt to OnToken first.
	Echo bool
	// IgnoreEOS keeps generating past an EOS token.
	IgnoreEOS bool
	// StopTokens end generation too, like the model's EOS ids (the token is still emitted).
	StopTokens []int
	// OnToken receives each piece of text as it is generated, with its token id (-1 for the
	// echoed prompt); returning ErrStop ends generation, any other error aborts it.
	OnToken func(id int, piece string) error
}

// Stats are one generation's counts and times (the runner's Stats).
type Stats struct {
	PromptTokens    int
	GeneratedTokens int // tokens sampled after the first (the runner's num_generated_tokens)
	// Prefill runs from the start of Generate (tokenizing included) to the first token; Decode
	// from there to the end, as the runner's report measures them.
	Prefill, Decode time.Duration
	// ModelTime is the time spent in the model's forward calls, SamplingTime in the sampler.
	ModelTime, SamplingTime time.Duration
	// PrefillCPU and DecodeCPU are the process's CPU time (user and system, every thread, the
	// garbage collector's included) over the same spans, where the platform reports it (0
	// elsewhere): on a machine shared with other work they say what the phases cost where wall
	// time says how long others kept the cores.
	PrefillCPU, DecodeCPU time.Duration
}

// PrefillTokensPerSecond is the prompt's tokens over the prefill time.
func (s Stats) PrefillTokensPerSecond() float64 { return rate(s.PromptTokens, s.Prefill) }

// DecodeTokensPerSecond is the generated tokens over the decode time.
func (s Stats) DecodeTokensPerSecond() float64 { return rate(s.GeneratedTokens, s.Decode) }

func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Result is what Generate produced.
type Result struct {
	PromptTokens []int
	// Tokens are the generated ids, the prefill's first token included.
	Tokens []int
	Text   string
	Stats  Stats
	// EOS says generation ended on one of the model's EOS ids (the runner then prints a
	// newline of its own, before the one that ends its output).
	EOS bool
}

// Generator drives a decoder program the way ExecuTorch's TextLLMRunner does: prefill (the whole
// prompt per call when the program has dynamic shapes, else token by token, in chunks of
// MaxSeqLen), then one forward call per token, the KV cache kept in its own Session so positions
// carry from call to call and from one Generate to the next until Reset. Not safe for concurrent
// use; make one Generator per conversation (they share the Module's weights).
type Generator struct {
	mod     *etgo.Module
	sess    *etgo.Session
	tok     Tokenizer
	md      Metadata
	tokType executor.ScalarType
	posLen  int // the second input's element count: 1 (start_pos), more (cache positions)
	inputs  int
	pos     int
	next    int // the token a Prefill call yielded, for a Generate with an empty prompt
	hasNext bool
}

// NewGenerator prepares a generator over the program's "forward" method (or "prefill" when it
// has no forward, as the runner falls back).
func NewGenerator(m *etgo.Module, tok Tokenizer) (*Generator, error) {
	if m == nil || tok == nil {
		return nil, fmt.Errorf("%w: NewGenerator needs a module and a tokenizer", ErrConfig)
	}
	md, err := ReadMetadata(m, tok)
	if err != nil {
		return nil, err
	}
	method := "forward"
	if !m.HasMethod(method) && m.HasMethod("prefill") {
		method = "prefill"
	}
	meta, err := m.MethodMeta(method)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	g := &Generator{mod: m, tok: tok, md: md, inputs: len(meta.Inputs)}
	if len(meta.Inputs) < 1 || len(meta.Inputs) > 2 || meta.Inputs[0].Tag != executor.TagTensor || len(meta.Inputs[0].Sizes) != 2 {
		return nil, fmt.Errorf("%w: %s takes %d inputs; the runner feeds tokens [1, n] and, with a KV cache, the start position", ErrModel, method, len(meta.Inputs))
	}
	if dt := meta.Inputs[0].DType; dt != executor.Int64 && dt != executor.Int32 {
		return nil, fmt.Errorf("%w: %s takes %s tokens", ErrModel, method, executor.DTypeName(dt))
	}
	g.tokType = meta.Inputs[0].DType
	if g.inputs == 2 {
		in := meta.Inputs[1]
		if in.Tag != executor.TagTensor || len(in.Sizes) != 1 || in.DType != g.tokType {
			return nil, fmt.Errorf("%w: %s's second input is not a position tensor", ErrModel, method)
		}
		g.posLen = in.Sizes[0]
	}
	if len(meta.Outputs) != 1 || meta.Outputs[0].Tag != executor.TagTensor || meta.Outputs[0].DType != executor.Float32 {
		return nil, fmt.Errorf("%w: %s must return one float32 logits tensor", ErrModel, method)
	}
	if g.sess, err = m.Session(method); err != nil {
		return nil, err
	}
	return g, nil
}

// Metadata returns what the generator read from the model and tokenizer.
func (g *Generator) Metadata() Metadata { return g.md }

// Pos is the number of positions of the KV cache in use.
func (g *Generator) Pos() int { return g.pos }

// Reset starts a new conversation: position 0 (the cache's old entries are overwritten as new
// positions are written, as in the runner's reset()).
func (g *Generator) Reset() { g.pos, g.hasNext = 0, false }

// Close releases the generator's session.
func (g *Generator) Close() error { return g.sess.Close() }

// Prefill feeds text into the cache without generating (to rebuild a conversation), returning
// the token the model would say next; a Generate with an empty prompt starts from it.
func (g *Generator) Prefill(ctx context.Context, text string, numBOS, numEOS int) (int, error) {
	ids, err := g.tok.Encode(text, numBOS, numEOS)
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("%w: %q encodes to no tokens", ErrConfig, text)
	}
	if err := g.fits(len(ids)); err != nil {
		return 0, err
	}
	var st Stats
	next, err := g.prefill(ctx, ids, &st)
	if err != nil {
		return 0, err
	}
	g.next, g.hasNext = next, true
	return next, nil
}

// fits is the runner's check of a prompt against the context.
func (g *Generator) fits(n int) error {
	if g.md.MaxSeqLen >= g.md.MaxContextLen {
		if g.pos+n >= g.md.MaxContextLen {
			return fmt.Errorf("%w: position %d + %d prompt tokens reach the context length %d", ErrContextFull, g.pos, n, g.md.MaxContextLen)
		}
	} else if n >= g.md.MaxContextLen {
		return fmt.Errorf("%w: %d prompt tokens reach the context length %d", ErrContextFull, n, g.md.MaxContextLen)
	}
	return nil
}

// Generate continues the conversation with prompt and returns what it generated.
func (g *Generator) Generate(ctx context.Context, prompt string, cfg Config) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !(cfg.Temperature >= 0 && cfg.Temperature <= 1) {
		return nil, fmt.Errorf("%w: temperature %v is outside [0, 1]", ErrConfig, cfg.Temperature)
	}
	if cfg.MaxNewTokens < 0 || cfg.SeqLen < 0 || cfg.NumBOS < 0 || cfg.NumEOS < 0 || cfg.TopK < 0 {
		return nil, fmt.Errorf("%w: negative counts in %+v", ErrConfig, cfg)
	}
	start, startCPU := time.Now(), processCPU()
	res := &Result{}
	emit := func(id int, piece string) error {
		res.Text += piece
		if cfg.OnToken != nil {
			return cfg.OnToken(id, piece)
		}
		return nil
	}
	var cur int
	if prompt != "" {
		ids, err := g.tok.Encode(prompt, cfg.NumBOS, cfg.NumEOS)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("%w: the prompt encodes to no tokens", ErrConfig)
		}
		if err := g.fits(len(ids)); err != nil {
			return nil, err
		}
		res.PromptTokens = ids
		if cfg.Echo {
			// The echoed prompt goes to the callback; Result.Text holds what was generated.
			if cfg.OnToken != nil {
				if err := cfg.OnToken(-1, prompt); err != nil && !errors.Is(err, ErrStop) {
					return nil, err
				}
			}
		}
		if cur, err = g.prefill(ctx, ids, &res.Stats); err != nil {
			return nil, err
		}
		g.hasNext = false
	} else {
		if !g.hasNext {
			return nil, fmt.Errorf("%w: an empty prompt needs a prior Prefill", ErrConfig)
		}
		cur, g.hasNext = g.next, false
	}
	effective := g.pos
	if g.md.MaxSeqLen < g.md.MaxContextLen {
		effective = 0 // sliding-window models recycle the cache
	}
	maxNew := resolveMaxNewTokens(cfg, g.md.MaxContextLen, effective)
	if maxNew <= 0 {
		return nil, fmt.Errorf("%w: no room for a new token (position %d of %d)", ErrContextFull, g.pos, g.md.MaxContextLen)
	}
	res.Stats.PromptTokens = len(res.PromptTokens)
	if prompt == "" {
		res.Stats.PromptTokens = g.pos
	}
	prefillEnd, prefillEndCPU := time.Now(), processCPU()
	res.Stats.Prefill = prefillEnd.Sub(start)
	if startCPU > 0 {
		res.Stats.PrefillCPU = prefillEndCPU - startCPU
	}
	defer func() {
		res.Stats.Decode = time.Since(prefillEnd)
		if prefillEndCPU > 0 {
			res.Stats.DecodeCPU = processCPU() - prefillEndCPU
		}
	}()

	piece, err := g.tok.Decode(cur, cur)
	if err != nil {
		return res, err
	}
	res.Tokens = append(res.Tokens, cur)
	if err := emit(cur, piece); err != nil {
		return res, stopped(err)
	}

	seed := cfg.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	topP := cfg.TopP
	if topP == 0 {
		topP = DefaultTopP
	}
	sampler := NewSampler(cfg.Temperature, topP, cfg.TopK, seed)
	stop, eos := map[int]bool{}, map[int]bool{}
	if !cfg.IgnoreEOS {
		for _, id := range g.md.EOS {
			stop[id], eos[id] = true, true
		}
	}
	for _, id := range cfg.StopTokens {
		stop[id] = true
	}
	// As the runner's token generator: feed the last token at pos, sample, emit, then check the
	// stop conditions; maxNew-1 more tokens at most (prefill yielded the first). A program
	// without a KV cache is fed the whole sequence every time.
	hist := append([]int(nil), res.PromptTokens...)
	for n := 0; n < maxNew-1; n++ {
		feed := []int{cur}
		if g.inputs < 2 {
			hist = append(hist, cur)
			feed = hist
		}
		logits, err := g.step(ctx, feed, &res.Stats)
		if err != nil {
			return res, err
		}
		t := time.Now()
		prev := cur
		cur = g.sample(sampler, logits)
		res.Stats.SamplingTime += time.Since(t)
		g.pos++
		res.Stats.GeneratedTokens++
		res.Tokens = append(res.Tokens, cur)
		piece, err := g.tok.Decode(prev, cur)
		if err != nil {
			return res, err
		}
		if err := emit(cur, piece); err != nil {
			return res, stopped(err)
		}
		if stop[cur] {
			res.EOS = eos[cur]
			break
		}
	}
	return res, nil
}

func stopped(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// resolveMaxNewTokens is GenerationConfig::resolve_max_new_tokens with 0 for the runner's -1.
func resolveMaxNewTokens(cfg Config, maxContext, occupied int) int {
	var n int
	switch {
	case cfg.SeqLen == 0 && cfg.MaxNewTokens == 0:
		n = maxContext - occupied
	case cfg.SeqLen == 0:
		n = min(cfg.MaxNewTokens, maxContext-occupied)
	case cfg.MaxNewTokens == 0:
		n = min(cfg.SeqLen, maxContext) - occupied
	default:
		n = min(min(cfg.SeqLen, maxContext)-occupied, cfg.MaxNewTokens)
	}
	return max(0, n)
}

// prefill feeds the prompt in chunks of MaxSeqLen and returns the greedy next token (the runner's
// TextPrefiller samples it at temperature 0).
func (g *Generator) prefill(ctx context.Context, ids []int, st *Stats) (int, error) {
	var logits []float32
	for off := 0; off < len(ids); {
		n := min(len(ids)-off, g.md.MaxSeqLen)
		chunk := ids[off : off+n]
		if g.md.EnableDynamicShape || !g.md.UseKVCache || g.inputs < 2 {
			var err error
			if logits, err = g.step(ctx, chunk, st); err != nil {
				return 0, err
			}
			g.pos += n
		} else {
			for _, id := range chunk {
				var err error
				if logits, err = g.step(ctx, []int{id}, st); err != nil {
					return 0, err
				}
				g.pos++
			}
		}
		off += n
	}
	return argmax(g.vocab(logits)), nil
}

// step runs the model on tokens at the current position and returns the last token's logits.
func (g *Generator) step(ctx context.Context, tokens []int, st *Stats) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g.inputs == 2 && g.pos+len(tokens) > g.md.MaxContextLen {
		return nil, fmt.Errorf("%w: position %d + %d tokens is past the context length %d", ErrContextFull, g.pos, len(tokens), g.md.MaxContextLen)
	}
	for _, id := range tokens {
		if id < 0 || (g.md.ModelVocabSize > 0 && id >= g.md.ModelVocabSize) {
			return nil, fmt.Errorf("%w: token id %d is outside the model's vocabulary of %d", ErrConfig, id, g.md.ModelVocabSize)
		}
	}
	tok, err := g.intTensor(tokens, 1, len(tokens))
	if err != nil {
		return nil, err
	}
	in := []*etgo.EValue{etgo.TensorValue(tok)}
	if g.inputs == 2 {
		pos := []int{g.pos}
		if g.posLen > 1 {
			pos = make([]int, len(tokens))
			for i := range pos {
				pos[i] = g.pos + i
			}
		}
		p, err := g.intTensor(pos, len(pos))
		if err != nil {
			return nil, err
		}
		in = append(in, etgo.TensorValue(p))
	}
	t := time.Now()
	out, err := g.sess.Execute(ctx, in...)
	st.ModelTime += time.Since(t)
	if err != nil {
		return nil, err
	}
	if len(out) != 1 || out[0].Tag != executor.TagTensor {
		return nil, fmt.Errorf("%w: forward returned %d values, not one logits tensor", ErrModel, len(out))
	}
	logits, err := etgo.Values[float32](out[0].Tensor)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	// [1, vocab] (the last token's logits) or [1, n, vocab] (every token's): the runner samples
	// the last row.
	sizes := out[0].Tensor.Sizes()
	if len(sizes) == 0 || sizes[len(sizes)-1] == 0 {
		return nil, fmt.Errorf("%w: logits of sizes %v", ErrModel, sizes)
	}
	v := sizes[len(sizes)-1]
	return logits[len(logits)-v:], nil
}

// vocab is the part of the logits the runner's sampler reads: the tokenizer's vocabulary (when
// smaller than the model's).
func (g *Generator) vocab(logits []float32) []float32 {
	if g.md.VocabSize > 0 && g.md.VocabSize < len(logits) {
		return logits[:g.md.VocabSize]
	}
	return logits
}

func (g *Generator) sample(s *Sampler, logits []float32) int { return s.Sample(g.vocab(logits)) }

func (g *Generator) intTensor(v []int, sizes ...int) (*etgo.Tensor, error) {
	if g.tokType == executor.Int32 {
		x := make([]int32, len(v))
		for i, e := range v {
			x[i] = int32(e)
		}
		return etgo.NewTensor(x, sizes...)
	}
	x := make([]int64, len(v))
	for i, e := range v {
		x[i] = int64(e)
	}
	return etgo.NewTensor(x, sizes...)
}
