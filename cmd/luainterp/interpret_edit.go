package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/luainterp/luainterp/cmd/luainterp/internal/scaffold"
	"github.com/luainterp/luainterp/internal/manifest"
)

// editor returns the command line of the user's editor: $KUBE_EDITOR, as
// karmadactl and kubectl read it, else $EDITOR, else vi.
func editor() []string {
	for _, env := range []string{"KUBE_EDITOR", "EDITOR"} {
		if fields := strings.Fields(os.Getenv(env)); len(fields) > 0 {
			return fields
		}
	}
	return []string{"vi"}
}

// runEdit opens the editor on the customization of -f, or on a new one for
// the kind of the input object, and then runs the operation on what was
// saved, or checks it when no operation is given.
func (o *interpretOptions) runEdit(cmd *cobra.Command) error {
	path, err := o.editTarget(cmd)
	if err != nil {
		return err
	}
	argv := append(editor(), path)
	ed := exec.CommandContext(cmd.Context(), argv[0], argv[1:]...)
	ed.Stdin, ed.Stdout, ed.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := ed.Run(); err != nil {
		return fmt.Errorf("--edit: editor %q: %w", strings.Join(argv, " "), err)
	}
	o.customizations = []string{path}
	if o.operation == "" {
		return o.runCheck(cmd)
	}
	return o.run(cmd)
}

// editTarget returns the file to edit: the one file of -f, or a new file
// holding a customization for the kind of --observed-file or
// --desired-file, which is kept for the next run.
func (o *interpretOptions) editTarget(cmd *cobra.Command) (string, error) {
	switch len(o.customizations) {
	case 0:
	case 1:
		path := o.customizations[0]
		if path == manifest.Stdin || manifest.IsURL(path) {
			return "", fmt.Errorf("--edit: -f %s: want a local file to edit", path)
		}
		info, err := os.Stat(path)
		if err != nil {
			return "", fmt.Errorf("--edit: %w", err)
		}
		if info.IsDir() {
			return "", fmt.Errorf("--edit: -f %s: want a file, not a directory", path)
		}
		return path, nil
	default:
		return "", errors.New("--edit: edits one customization file: give -f once, or not at all for a new one")
	}
	file := o.observedFile
	if file == "" {
		file = o.desiredFile
	}
	if file == "" {
		return "", errors.New("--edit: needs -f FILE to edit, or --observed-file or --desired-file for the kind of a new customization")
	}
	obj, err := newInputs(cmd.InOrStdin()).object("--edit", file)
	if err != nil {
		return "", err
	}
	gvk := obj.GroupVersionKind()
	text, err := scaffold.Customization(scaffold.Target{GVK: gvk}, strings.ToLower(gvk.Kind))
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "luainterp-"+strings.ToLower(gvk.Kind)+"-*.yaml")
	if err != nil {
		return "", fmt.Errorf("--edit: %w", err)
	}
	if _, err := f.Write(text); err != nil {
		f.Close()
		return "", fmt.Errorf("--edit: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("--edit: %w", err)
	}
	path := filepath.Clean(f.Name())
	fmt.Fprintf(cmd.ErrOrStderr(), "editing a new customization for %s %s in %s (run again with -f %[3]s)\n", gvk.GroupVersion(), gvk.Kind, path)
	return path, nil
}
