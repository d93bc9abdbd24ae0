"""Check: the rules applied while walking module, class and function bodies."""
