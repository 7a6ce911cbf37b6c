"""The screens of the TUI: start, inputs, run view, proposals, settings, ask and help."""
