"""The TUI's fix flow: its worker, state, widgets, run view, proposals screen and review actions."""
