# Legitimate: Python.
import sys
print(sys.stdin.readline().strip())
