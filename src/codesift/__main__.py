"""``python -m codesift`` runs the command line."""

from codesift.cli.app import main

if __name__ == "__main__":
    main()
