"""The league's pages: views, forms and what they say in words (the web layer, above the domain)."""
