/// Stylesheets that try to exhaust the machine, for the tests of a template's limits.
package enum HostileTemplates {
    /// A grid stylesheet whose page is a string that doubles for ever.
    package static let doublingString = """
        <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
          <xsl:template match="/">
            <html><body><xsl:call-template name="grow"><xsl:with-param name="s" select="'0123456789abcdef'"/></xsl:call-template></body></html>
          </xsl:template>
          <xsl:template name="grow">
            <xsl:param name="s"/>
            <xsl:call-template name="grow"><xsl:with-param name="s" select="concat($s, $s)"/></xsl:call-template>
          </xsl:template>
        </xsl:stylesheet>
        """

    /// A grid stylesheet that loops over every node six deep (hours for the few hundred nodes of a page's view),
    /// allocating little and writing nothing.
    package static let endlessLoop = """
        <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
          <xsl:template match="/">
            <html><body>
              <xsl:for-each select="//node()"><xsl:for-each select="//node()"><xsl:for-each select="//node()">
              <xsl:for-each select="//node()"><xsl:for-each select="//node()">
                <xsl:if test="count(//node()) &lt; 0">never</xsl:if>
              </xsl:for-each></xsl:for-each>
              </xsl:for-each></xsl:for-each></xsl:for-each>
            </body></html>
          </xsl:template>
        </xsl:stylesheet>
        """
}
