from __future__ import annotations

from tddhooks.cli import main

if __name__ == "__main__":
    main()
