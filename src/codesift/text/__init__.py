"""Text made from code and queries: the code-aware tokenizer, extra index terms, and what the dense model reads."""
