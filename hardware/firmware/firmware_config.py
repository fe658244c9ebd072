"""Build settings of the RP2040 (Raspberry Pi Pico) firmware: which device this board is, its link
and its pins. Edit before copying to the board (see README.md); pin numbers are GPIO numbers."""

KIND = "dice"               # "dice" (dice tray) or "board" (board scanner)
LINK = "usb"                # "usb": USB CDC, /dev/ttyACM0 on the Pi; "uart": UART0 on GP0 (TX) / GP1 (RX)
UART_ID = 0
UART_BAUD = 115200
UART_TX = 0
UART_RX = 1
LOOP_MS = 5                 # main loop period: sensors polled, lines read, heartbeats due
SAFE_PIN = 28               # held to GND at boot: the firmware does not start (README.md, "Updating")

# Dice tray (hardware/WIRING-dice.md): three reflective IR sensors under each of the four pockets.
POCKET_PINS = ((2, 3, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13))
MOTION_PIN = 14             # SW-420 vibration module DO, high while the tray is shaken
TRAY_LED_PIN = 15           # gate of the MOSFET switching the tray's LED strip
SETTLE_MS = 400             # dice still this long after the last shake: read the faces

# Board scanner: MFRC522 modules on SPI0, one chip-select and one LED per reader.
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
READER_CS_PINS = (17, 20, 21, 22, 26, 27)
READER_LED_PINS = (2, 3, 4, 5, 6, 7)
DEBOUNCE_MS = 400           # firmware_bridge/shared/debounce.py explains the window
