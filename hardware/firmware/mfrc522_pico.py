"""A small MFRC522 driver over MicroPython's machine.SPI: every ISO 14443-A tag in one reader's field.

Written from the MFRC522 datasheet (registers, SPI address byte, Transceive, BitFramingReg,
CollReg) and ISO/IEC 14443-3 (WUPA, anticollision by UID bits, SELECT per cascade level, HLTA).
`inventory()` walks the UID tree: where two tags' bits differ the chip reports a collision; the
walk follows the 1-branch and keeps the 0-branch for later, so each kept branch holds a tag.
Each branch starts with WUPA, which also wakes the tags this pass has already HALTed; they stay
silent because their UIDs do not match the branch's prefix. A much stronger tag captures the
reader (its answer decoded cleanly, a weak one beside it drowned, no collision seen), so after the
walk a REQA asks again: the tags read are HALTed and silent, one left unread answers, and the walk
runs again from the root with REQA for each branch, until a REQA meets silence. The antenna is on
only while its reader is read (`antenna`, scanner_sensors.py), so every read starts with its tags
reset. Returns None when a pass went wrong (a CRC/BCC error, a tag answering half a frame), so the
caller keeps its previous reading instead of reading an absence into it.
"""

COMMAND = 0x01
COMM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

WUPA = 0x52
REQA = 0x26
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
MAX_TAGS = 16
MAX_BRANCHES = 40


class Error(Exception):
    pass


def _bits(data, count):
    out = []
    for i in range(count):
        out.append(data[i // 8] >> (i % 8) & 1)
    return out


def _pack(bits):
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return out


class Mfrc522:
    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)

    def _write(self, reg, value):
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        finally:
            self.cs.value(1)

    def _read(self, reg):
        buf = bytearray(2)
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), buf)
        finally:
            self.cs.value(1)
        return buf[1]

    def _write_burst(self, reg, data):
        """Bytes into one register in one SPI frame (the FIFO: datasheet 8.1.2.2)."""
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E,)) + bytes(data))
        finally:
            self.cs.value(1)

    def _read_burst(self, regs):
        """Several registers in one SPI frame: each address byte clocks out the previous one's value
        (datasheet 8.1.2.1); FIFODataReg named n times pops n bytes."""
        out = bytes([((r << 1) & 0x7E) | 0x80 for r in regs] + [0])
        buf = bytearray(len(out))
        self.cs.value(0)
        try:
            self.spi.write_readinto(out, buf)
        finally:
            self.cs.value(1)
        return buf[1:]

    def init(self):
        """Reset and configure; False if no MFRC522 answers on this chip-select."""
        self._write(COMMAND, SOFT_RESET)
        self._write(T_MODE, 0x80)           # timer starts at the end of each transmission
        self._write(T_PRESCALER, 0xA9)      # 25 us ticks
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, 20)         # 0.5 ms: a tag answers 86 us after a request, and the timer
        #                                     stops at its answer's 5th bit; an empty reader costs 0.5 ms
        self._write(TX_ASK, 0x40)           # 100 % ASK, as type A needs
        self._write(MODE, 0x3D)             # CRC preset 0x6363 (ISO 14443-3 CRC_A)
        self._write(COLL, 0x00)             # bits after a collision read as 0
        self.antenna(False)                 # on only while this reader is read
        return self._read(VERSION) in (0x91, 0x92)

    def antenna(self, on):
        """TxControlReg's Tx1RFEn and Tx2RFEn: this reader's field on or off."""
        value = self._read(TX_CONTROL)
        self._write(TX_CONTROL, value | 0x03 if on else value & ~0x03 & 0xFF)

    def _transceive(self, data, tx_last_bits=0, rx_align=0, crc=False):
        """Send a frame; None if no tag answers, else (answer bits, index of the first collided bit,
        None without a collision, -1 for one the chip cannot place: past the 32nd received bit)."""
        self._write(TX_MODE, 0x80 if crc else 0x00)
        self._write(RX_MODE, 0x80 if crc else 0x00)
        self._write(COMMAND, IDLE)
        self._write(COMM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        self._write_burst(FIFO_DATA, data)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, (rx_align << 4) | tx_last_bits | 0x80)
        for _ in range(2000):
            irq = self._read(COMM_IRQ)
            if irq & 0x30:
                break
            if irq & 0x01:
                return None
        else:
            raise Error("no answer from the chip")
        self._write(BIT_FRAMING, (rx_align << 4) | tx_last_bits)
        err, count, control, coll = self._read_burst((ERROR, FIFO_LEVEL, CONTROL, COLL))
        if err & 0x17:                      # buffer overflow, CRC, parity or protocol error
            raise Error("error 0x%02X" % err)
        received = bytes(self._read_burst((FIFO_DATA,) * count)) if count else b""
        last = control & 0x07
        total = (count - 1) * 8 + (last or 8) if count else 0
        bits = _bits(received, total)[rx_align:]
        collision = None
        if err & 0x08:
            # CollPos counts from the first FIFO bit, RxAlign included, 1-based; 0 means 32.
            # Beyond 32 bits the chip cannot say: the first 32 bits are still collision-free.
            collision = -1 if coll & 0x20 else ((coll & 0x1F) or 32) - 1 - rx_align
        return bits, collision

    def _select_level(self, level, known, branches, path):
        """Complete `known` (UID-field bits of this level) to 40 bits and SELECT it; the SAK."""
        while len(known) < 40:
            nbits = 16 + len(known)
            frame = bytes((SEL[level], ((nbits // 8) << 4) | (nbits % 8))) + _pack(known)
            answer = self._transceive(frame, len(known) % 8, len(known) % 8)
            if answer is None:
                return None, known          # the tag of this branch has left
            bits, collision = answer
            if collision is None:
                known = known + bits
                if len(known) != 40:
                    raise Error("short anticollision answer")
            elif collision < 0:                 # position unknown: keep the sure bits, ask again
                known = known + bits[:32 - len(known) % 8]
            else:
                branches.append(path + [known + bits[:collision] + [0]])
                known = known + bits[:collision] + [1]
        field = _pack(known)
        if field[0] ^ field[1] ^ field[2] ^ field[3] != field[4]:
            raise Error("BCC mismatch")
        answer = self._transceive(bytes((SEL[level], 0x70)) + field, crc=True)
        if answer is None or len(answer[0]) != 8:
            return None, known
        return _pack(answer[0])[0], known

    def inventory(self):
        """Upper-case hex UIDs of every tag in the field, or None if this pass cannot be trusted."""
        found = []
        budget = [MAX_BRANCHES]
        try:
            state = self._walk(found, WUPA, budget)
            while state == "answered" and len(found) < MAX_TAGS:
                state = self._walk(found, REQA, budget)     # the final request: a tag left unread?
            return None if state == "broken" else found
        except Error:
            return None

    def _walk(self, found, wake, budget):
        """One walk from the root, each branch begun with `wake`: "silent" (the root's request met
        silence), "answered", or "broken" (branches left unresolved)."""
        branches = [[]]
        answered = False
        while budget[0] > 0:
            budget[0] -= 1
            if not branches or len(found) >= MAX_TAGS:
                return "answered" if answered else "silent"
            path = branches.pop()
            if self._transceive(bytes((wake,)), 7) is None:
                if path:
                    continue            # that branch's tag left the field
                return "silent"
            answered = True
            uid = bytearray()
            for level in range(3):
                known = path[level] if level < len(path) else []
                sak, known = self._select_level(level, known, branches, path[:level])
                if sak is None:
                    break
                path = path[:level] + [known]
                field = _pack(known)
                if field[0] == CASCADE_TAG and sak & 0x04:
                    uid += field[1:4]
                    continue
                uid += field[0:4]
                name = "".join("%02X" % b for b in uid)
                if name not in found:
                    found.append(name)
                self._transceive(bytes((0x50, 0x00)), crc=True)    # HLTA: no answer expected
                break
        return "broken" if branches else ("answered" if answered else "silent")
