"""JQL: a lark grammar (parser.py) compiled to SQLAlchemy Core conditions (compiler.py)."""
