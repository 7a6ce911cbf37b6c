"""The fix pipeline: run the suite, localize, extract patches, verify each in the sandbox, score, save and report."""
