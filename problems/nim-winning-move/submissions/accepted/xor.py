# Nim-sum s; if s != 0 some pile has s's top bit, and a_i xor s < a_i there.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = list(map(int, data[1:n + 1]))
    s = 0
    for v in a:
        s ^= v
    if s == 0:
        print("lose")
        return
    for i, v in enumerate(a):
        if v ^ s < v:
            print(i + 1, v ^ s)
            return


main()
