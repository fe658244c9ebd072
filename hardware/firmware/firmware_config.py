"""Build settings of the RP2040 (Raspberry Pi Pico) firmware: which device this board is, its link
and its pins. Edit before copying to the board (see README.md); pin numbers are GPIO numbers."""

KIND = "dice"               # "dice" (dice tray) or "board" (board scanner)
LINK = "usb"                # "usb": USB CDC, /dev/ttyACM0 on the Pi; "uart": UART0 on GP0 (TX) / GP1 (RX)
UART_ID = 0
UART_BAUD = 115200
UART_TX = 0
UART_RX = 1
LOOP_MS = 5                 # main loop period: sensors polled, lines read, heartbeats due
SAFE_MODE_PIN = 28          # GP28 (pin 34) jumpered to GND (pin 33) at power-up: main loop skipped (README.md)

# Dice tray (README.md, "Dice build"): three reflective IR sensors under each of the four pockets.
POCKET_PINS = ((2, 3, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13))
MOTION_PIN = 14             # SW-420 vibration module DO, high while the tray is shaken
TRAY_LED_PIN = 15           # gate of the MOSFET switching the tray's LED strip
SETTLE_MS = 400             # dice still this long after the last shake: read the faces

# Board scanner. READER_SELECT "pins": up to six MFRC522 modules on SPI0, one chip-select pin and one
# LED per reader (READER_CS_PINS, READER_LED_PINS). "decoders": the sensing board's region hub
# (hardware/BOARD-BUILD.md): both SPI buses, each module's chip select through the bus's 74HC154.
READER_SELECT = "pins"
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
READER_CS_PINS = (17, 20, 21, 22, 26, 27)
READER_LED_PINS = (2, 3, 4, 5, 6, 7)
# "decoders": per bus (SPI id, SCK, MOSI, MISO, decoder A0-A3, decoder /E, readers on it). The Pico's
# reader numbers run over bus 0's readers, then bus 1's, as the layout numbers its region (readers.toml
# `pico`; its first reader is this Pico's reader 0). Pico 1 of the packaged layout: 10 + 9; Pico 2:
# 10 + 10; Pico 3: 10 + 11 (its last is the scan pad).
SPI_BUSES = ((0, 18, 19, 16, (2, 3, 4, 5), 17, 10),
             (1, 10, 11, 12, (6, 7, 8, 9), 13, 9))
# "decoders": the next field on while this one is read (two at most). Turn it on with this Pico's
# SCAN_ORDER from readers.toml's header (`rubicon board-layout`: consecutive fields >= 110 mm apart).
# Without one the order alternates bus 0 and bus 1, and on the packaged layout some of each Pico's ~20
# consecutive pairs then lie under 100 mm apart, near enough to couple.
PIPELINE = False
SCAN_ORDER = None           # e.g. Pico 1: (1, 5, 12, 10, 18, 7, 16, 6, 11, 8, 15, 14, 13, 2, 9, 0, 3, 4, 17)
RESET_PIN = 14              # every module's NRSTPD (through a spare buffer gate): high = running; None: wired to 3V3
DEBOUNCE_MS = 400           # departures: firmware_bridge/shared/debounce.py explains the window
ARRIVE_READS = 2            # arrivals: two consecutive reads of the tag (never held by the departure window)
CONFIRM_AT_ONCE = True      # the second read at once, after a field reset (scanner_sensors.py): one pass, not two
FIELD_MS = 6                # a reader's field: off this long before its read, unmodulated this long first
                            # (ISO/IEC 14443-3 5.2.1: a tag answers within 5 ms; 5.1 ms rounded up)
