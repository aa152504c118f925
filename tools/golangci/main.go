// Command golangci-lint is golangci-lint v2 with the fencecheck module plugin
// compiled in, built from the Go module proxy alone.
//
// It does what `golangci-lint custom` does for a .custom-gcl.yml that lists
// fencecheck (a main package that blank-imports the plugin and calls
// golangci-lint's command entry point), without cloning golangci-lint's
// repository:
//
//	cd tools/golangci && go build -o ../../bin/golangci-lint .
//
// The resulting binary reads .golangci.yml as usual; fencecheck is enabled
// there as a custom linter of type "module".
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/fencecheck/fencecheck/gclplugin" // registers the "fencecheck" linter
)

// golangciModule is the module whose version the binary reports.
const golangciModule = "github.com/golangci/golangci-lint/v2"

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo describes the binary for `golangci-lint version`: golangci-lint's
// module version, the Go toolchain, and that the fencecheck plugin is in.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{
		Version:   "unknown",
		GoVersion: "unknown",
		Commit:    "fencecheck plugin build",
		Date:      "(unknown)",
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	for _, dep := range bi.Deps {
		if dep.Path == golangciModule {
			info.Version = strings.TrimPrefix(dep.Version, "v") + "-fencecheck"
			info.Commit = fmt.Sprintf("(module %s@%s with the fencecheck plugin)", dep.Path, dep.Version)
		}
	}
	return info
}
