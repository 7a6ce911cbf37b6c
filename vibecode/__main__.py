from vibecode.cli import main

raise SystemExit(main())
