"""SUTs whose attributes raise as they are read: refimpl's names, and one that raises.

`tests/meta/test_sut_manners.py` holds the command to refuse each in one line,
exit 2, saying what raised, never with a traceback of jaxcheck's own.
"""
