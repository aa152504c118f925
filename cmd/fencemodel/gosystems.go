package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// goSystems lowers the systems of Go packages through package extract, as
// the analyzer does, so that the engines' bench can run them beside model
// files. Each package directory is loaded once.
type goSystems struct {
	loaded map[string][]*extract.System
}

// system returns the model of the system called name in the Go package in
// directory dir.
func (g *goSystems) system(dir, name string) (*model.Program, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	systems, ok := g.loaded[abs]
	if !ok {
		if systems, err = lowerPackage(abs); err != nil {
			return nil, err
		}
		if g.loaded == nil {
			g.loaded = map[string][]*extract.System{}
		}
		g.loaded[abs] = systems
	}
	var names []string
	for _, s := range systems {
		if s.Name == name {
			if s.Program == nil {
				return nil, fmt.Errorf("%s: system %s is not lowered", dir, name)
			}
			return s.Program, nil
		}
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("%s: no system %s (it has %s)", dir, name, strings.Join(names, ", "))
}

// lowerPackage loads the Go package in dir (in the module that holds it)
// and lowers its systems with the analyzer's default options.
func lowerPackage(dir string) ([]*extract.System, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:  dir,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("loading %s: %d packages", dir, len(pkgs))
	}
	pkg := pkgs[0]
	if len(pkg.Errors) > 0 {
		return nil, fmt.Errorf("loading %s: %v", dir, pkg.Errors[0])
	}
	systems, diags := extract.Package(pkg.Fset, pkg.Types, pkg.Syntax, pkg.TypesInfo)
	if len(systems) == 0 && len(diags) > 0 {
		return nil, fmt.Errorf("%s: %s", pkg.Fset.Position(diags[0].Pos), diags[0].Message)
	}
	return systems, nil
}
