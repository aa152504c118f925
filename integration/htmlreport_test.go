package integration

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// updateScreenshots rewrites the report's screenshots under docs/.
var updateScreenshots = flag.Bool("update-screenshots", false, "rewrite docs/report-*.png from the examples' HTML report")

// TestHTMLReport writes the HTML report of examples/ (fencecheck -html)
// and opens every page in headless Chromium: no page may log a console
// error or throw, the index lists every finding, and each finding's page
// draws every step of its interleaving in the lane of its goroutine.
func TestHTMLReport(t *testing.T) {
	requireIntegration(t, "chromium")
	bin := fencecheckBinary(t)
	dir := filepath.Join(t.TempDir(), "examples")
	copyTree(t, filepath.Join(repoRoot(t), "examples"), dir)
	out := filepath.Join(t.TempDir(), "report")
	r := run(t, dir, []string{"GOTOOLCHAIN=local"}, bin, "-html", out, "./...")
	if r.code != 3 {
		t.Fatalf("fencecheck -html: exit %d, want 3 (findings)\n%s", r.code, r.out)
	}
	m := regexp.MustCompile(`(\d+) findings; report in`).FindStringSubmatch(r.out)
	if m == nil {
		t.Fatalf("fencecheck -html did not say how many findings it wrote:\n%s", r.out)
	}
	findings, _ := strconv.Atoi(m[1])

	chromium, _ := exec.LookPath("chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()
	eval := func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
		return v
	}
	open := func(url string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			t.Fatalf("opening %s: %v", url, err)
		}
	}
	num := func(v any) int {
		f, _ := v.(float64)
		return int(f)
	}

	index := "file://" + filepath.Join(out, "index.html")
	open(index)
	rows := num(eval(`document.querySelectorAll("tr.finding").length`))
	var links []string
	if ls, ok := eval(`[...document.querySelectorAll("tr.finding a")].map(a => a.getAttribute("href"))`).([]any); ok {
		for _, l := range ls {
			links = append(links, fmt.Sprint(l))
		}
	}
	if rows != findings || findings == 0 {
		t.Errorf("the index lists %d findings, the command wrote %d", rows, findings)
	}
	if len(links) == 0 {
		t.Fatal("no finding of the examples has a page with its interleaving")
	}
	if *updateScreenshots {
		shoot(ctx, t, filepath.Join(repoRoot(t), "docs", "report-index.png"))
	}
	shotTSO := false
	for _, link := range links {
		open("file://" + filepath.Join(out, link))
		want := num(eval(`+document.querySelector("svg.timeline").dataset.steps`))
		drawn := num(eval(`document.querySelectorAll("svg.timeline g.step").length`))
		// Every step's box lies in its goroutine's lane.
		misplaced := num(eval(`[...document.querySelectorAll("svg.timeline g.step")].filter(g => {
			const x = +g.querySelector("rect").getAttribute("x");
			return Math.floor((x - 44) / 230) != +g.dataset.goroutine;
		}).length`))
		kind := fmt.Sprint(eval(`document.querySelector("h1 .kind").textContent`))
		if want == 0 || drawn != want {
			t.Errorf("%s: %d steps drawn, the interleaving has %d", link, drawn, want)
		}
		if misplaced > 0 {
			t.Errorf("%s: %d steps drawn outside their goroutine's lane", link, misplaced)
		}
		if *updateScreenshots && kind == "x86-TSO" && !shotTSO {
			shoot(ctx, t, filepath.Join(repoRoot(t), "docs", "report-finding.png"))
			shotTSO = true
		}
	}
	// The console's messages arrive asynchronously: a last page load
	// flushes what the earlier ones logged.
	open(index)
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the report's pages logged problems:\n%s", strings.Join(problems, "\n"))
	}
}

// shoot saves a screenshot of the open page into file.
func shoot(ctx context.Context, t *testing.T, file string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
