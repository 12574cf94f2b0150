/*
 * Test infrastructure only, never shipped: a stand-in for Windows'
 * bcryptprimitives.dll, which wine 8.0 (Debian 12) lacks. Go >= 1.22 takes
 * its random numbers from ProcessPrng there and stops at start-up
 * ("bcryptprimitives.dll not found") without it. This one fills the buffer
 * from RtlGenRandom (advapi32's SystemFunction036), which wine has.
 * Built and installed into a throw-away WINEPREFIX by scripts/wine/prefix.sh.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
