package llm_test

import (
	"context"
	"fmt"
	"log"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/llm"
)

// A greedy generation with a tiny random-weight Llama 3.2 export (its text is byte soup: the
// weights are random); the tokens are the official runner's.
func ExampleGenerator() {
	m, err := etgo.Load("../testdata/llm/llama3_2/model.pte")
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	tok, err := llm.LoadTokenizer("../testdata/llm/tokenizer.json")
	if err != nil {
		log.Fatal(err)
	}
	g, err := llm.NewGenerator(m, tok)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	res, err := g.Generate(context.Background(), "Once upon a time", llm.Config{MaxNewTokens: 6})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.PromptTokens), res.Tokens, g.Pos())
	// Output: 12 [217 97 68 161 163 276] 17
}
