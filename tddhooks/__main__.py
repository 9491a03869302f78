from __future__ import annotations

from tddhooks.entry import main

if __name__ == "__main__":
    main()
