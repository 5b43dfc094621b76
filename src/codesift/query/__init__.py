"""The query before retrieval: its shape, abbreviations, synonyms, learned translations and expansion terms."""
