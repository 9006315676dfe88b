package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newInterpretCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "interpret",
		Short: "Run one operation of a customization on an object",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("interpret: not written yet")
		},
	}
}
